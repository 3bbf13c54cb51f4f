import { html } from 'lit';
import { DashPage, define } from '../ui/element.ts';

export class Page extends DashPage {
  override connectedCallback(): void {
    super.connectedCallback();
    this.shown();
  }
  protected override render() {
    return html`<h1 tabindex="-1">event</h1>`;
  }
}
define('dash-page-event', Page);

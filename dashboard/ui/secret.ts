import { html } from 'lit';
import './copy.ts';

/** A secret shown once (a rolled key, a webhook signing secret), with a Copy button; `id` takes focus after it appears. */
export const secretBox = (id: string, secret: string, copyLabel: string) =>
  html`<div class="secret-box"><code id=${id} tabindex="-1">${secret}</code><dash-copy .text=${secret} label=${copyLabel}></dash-copy></div>`;

import { BOX_CSS } from '../internal/styles.ts';

/** `<cpe-card-fields>` itself takes no room (its children, the field targets, lay out as the page wants). */
export default ':host{display:contents}';

/** Each field's box, appended inside its mount target. */
export const fieldBoxStyles = BOX_CSS;

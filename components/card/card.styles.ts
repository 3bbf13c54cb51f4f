import { BOX_CSS, DIALOG_CSS } from '../internal/styles.ts';

/** `<cpe-card>`: a block that reserves its layout's minimum height, with the 3-D Secure modal. */
export default BOX_CSS + DIALOG_CSS;

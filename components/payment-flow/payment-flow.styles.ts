import { BOX_CSS, DIALOG_CSS } from '../internal/styles.ts';

/** Like `<cpe-card>`: a block reserving the form's and the button's height, with the 3-D Secure modal. */
export default BOX_CSS + DIALOG_CSS;

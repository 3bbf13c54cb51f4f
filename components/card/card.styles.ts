import { BOX_CSS } from '../internal/styles.ts';

/** `<cpe-card>`: a block that reserves its layout's minimum height (the 3-D Secure modal brings its own styles, dialogs.ts). */
export default BOX_CSS;

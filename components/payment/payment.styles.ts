import { WALLET_CSS } from '../internal/wallet.ts';

/** `<cpe-payment>`: a block reserving the tabs', form's and button's height, with the 3-D Secure and wallet sheet modals. */
export default WALLET_CSS;

/** The popup channel's message types: the zod-free part of protocol/schemas/popup.ts, for the SDK and the service's pages. */
export const POPUP_READY_TYPE = 'cpe:popup:ready';
export const POPUP_INIT_TYPE = 'cpe:popup:init';
export const POPUP_CLOSE_TYPE = 'cpe:popup:close';

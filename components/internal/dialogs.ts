/**
 * The SDK's modal dialogs, a chunk of their own (load-chunks.ts imports it on demand): the 3-D Secure
 * challenge (only when a payment needs one) and the wallet sheet (wallet-sheet.ts: only when a wallet
 * button is pressed), with their styles. A merchant page whose elements only become ready never fetches it.
 */
export { challenge } from './challenge.ts';
export { walletSheet } from './wallet-sheet.ts';

/**
 * Their look: a title bar with a close button over the
 * service's page, nothing below it, in the element's colour scheme (`.dark`) and `--cpe-*` tokens.
 * The challenge is 390 px wide (EMV window 02) and 340 px tall (the test page's content), full
 * screen (05) on narrow viewports. The dialog itself
 * holds the focus when it opens: no ring there; the close button's ring shows for the keyboard.
 */
export const DIALOG_CSS = `dialog{--b:var(--cpe-bg,#fff);--l:var(--cpe-border-subtle,#dfe2e7);padding:0;border:0;border-radius:12px;width:390px;max-width:100vw;overflow:hidden;background:var(--b);color:var(--cpe-fg,#1a1c1f);font-size:16px;color-scheme:light}
dialog.dark{--b:var(--cpe-bg,#16181c);--l:var(--cpe-border-subtle,#3d434c);color:var(--cpe-fg,#eef0f3);color-scheme:dark}
dialog:focus{outline:0}
dialog::backdrop{background:#0008}
header{display:flex;align-items:center;min-height:52px;box-sizing:border-box;padding-inline:20px 52px;border-bottom:1px solid var(--l)}
h2{margin:0;font-size:1rem}
.close{position:absolute;top:6px;inset-inline-end:6px;width:40px;height:40px;border:0;border-radius:8px;background:none;color:inherit;font-size:26px;line-height:1;cursor:pointer}
.close:focus-visible{outline:2px solid var(--cpe-focus,#1a5fd6);outline-offset:-2px}
dialog iframe{border:0;display:block;width:100%;height:340px;position:static;opacity:1;background:var(--b)}
@media (max-width:480px){dialog{width:100vw;height:100dvh;max-height:none;border-radius:0}dialog iframe{height:calc(100dvh - 53px)}}`;

/** The wallet sheet's dialog: its top stays where a full-height sheet's would be while the sheet fits its content (its ready says its height, 50 to 100 ms after it opens): centred, it jumped down half the difference, moving Approve and Cancel under a hand about to press them. */
export const SHEET_CSS = `.sheet{width:420px}@media (min-width:481px){.sheet{margin-block:max(0px,calc(50dvh - 326px)) auto}}.sheet iframe{height:min(600px,calc(100dvh - 53px))}`;

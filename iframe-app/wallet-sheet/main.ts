import { UUID } from '../../protocol/runtime/patterns.ts';
import { decodeWalletRequest } from '../../protocol/runtime/wallet-request.ts';
import { renderUnavailable } from '../shared/host.ts';
import { applyLanguage, LANGUAGE_TAG, loadCatalogue } from '../shared/i18n.ts';
import { WalletSheet } from './wallet-sheet.ts';
import { WALLETS } from '../../protocol/wallets/index.ts';

/** The wallet test sheet: `/frames/wallet-sheet/?pk=…&r=<base64url WalletRequest>&lang=…&theme=light|dark#<popup uuid>` (shared/popup-page.ts). */
async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const tag = query.get('lang') ?? 'en';
  const safeTag = LANGUAGE_TAG.test(tag) ? tag : 'en';
  const { lang, catalogue } = await loadCatalogue(safeTag);
  applyLanguage(lang, catalogue);
  const theme = query.get('theme');
  const pk = query.get('pk') ?? '';
  const request = decodeWalletRequest(query.get('r') ?? '');
  const uuid = location.hash.slice(1);
  if (!request || !pk.startsWith('pk_') || !UUID.test(uuid) || window.parent === window) return renderUnavailable(catalogue.unavailable);
  const sheet = new WalletSheet(request, pk, safeTag);
  sheet.catalogue = catalogue;
  // The element's colour scheme, for the sheet and its document (which the dialog's iframe shares, so it stays transparent).
  if (theme === 'light' || theme === 'dark') sheet.colorScheme = document.documentElement.style.colorScheme = theme;
  document.title = catalogue.sheetTitle.replace('{wallet}', WALLETS[request.wallet].name);
  document.body.append(sheet);
  await sheet.updateComplete;
  sheet.announceReady();
}
void main();

import { decodeWalletRequest } from '../../protocol/wallet-request.ts';
import { renderUnavailable } from '../shared/host.ts';
import { applyLanguage, loadCatalogue } from '../shared/i18n.ts';
import { loadWalletCatalogue } from '../shared/wallet-i18n.ts';
import { WalletSheet } from './wallet-sheet.ts';

/** The wallet test sheet: `/frames/wallet-sheet/?pk=…&ok=…&r=<base64url WalletRequest>&lang=…#<uuid>`. */
async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const tag = query.get('lang') ?? 'en';
  const safeTag = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(tag) ? tag : 'en';
  const [{ lang, cat }, wcat] = await Promise.all([loadCatalogue(safeTag), loadWalletCatalogue(safeTag)]);
  applyLanguage(lang, cat);
  const pk = query.get('pk') ?? '';
  const request = decodeWalletRequest(query.get('r') ?? '');
  const uuid = location.hash.slice(1);
  if (!request || !pk.startsWith('pk_') || !/^[0-9a-f-]{36}$/.test(uuid) || window.parent === window) return renderUnavailable(cat.unavailable);
  const sheet = new WalletSheet(request, pk, uuid, safeTag);
  sheet.cat = cat;
  sheet.wcat = wcat;
  document.title = wcat.sheetTitle.replace('{wallet}', request.wallet === 'a' ? 'Wallet A' : 'Wallet B');
  document.body.append(sheet);
  await sheet.updateComplete;
  sheet.announceReady();
}
void main();

import { startFrame } from '../shared/host.ts';
import { loadCatalogue } from '../shared/i18n.ts';
import { WalletButton, validAppearance } from './wallet-button.ts';

void startFrame((params) => {
  const { wallet, type = 'plain', style = 'dark' } = params;
  if (!wallet || !validAppearance(wallet, type, style)) return undefined;
  return new WalletButton(wallet, type, style).app;
}, loadCatalogue);

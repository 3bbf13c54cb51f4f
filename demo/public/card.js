import { settings, start } from './checkout.js';

// <cpe-card>: the whole card form in one hosted frame.
start((elements) =>
  elements.cardElement({ element: '#card', layout: settings.layout, theme: settings.theme, language: settings.language, cardSchemesDisplay: 'all' }),
);

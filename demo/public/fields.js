import { settings, start } from './checkout.js';

// <cpe-card-fields>: each field in its own hosted frame, placed by the page.
start((elements) =>
  elements.cardFieldsElement({
    element: '#card-fields',
    fields: { number: '#card-number', expiry: '#card-expiry', cvc: '#card-cvc', name: '#card-name' },
    theme: settings.theme,
    language: settings.language,
  }),
);

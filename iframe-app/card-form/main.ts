import en from '../../i18n/en.ts';
import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { pageTexts } from '../shared/texts.ts';
import { CardForm } from './card-form.ts';

// The page carries its language's texts (the service renders it per language): no catalogue is fetched.
void startFrame((params) => cardFrameApp(document.querySelector<CardForm>('cpe-card-form') ?? new CardForm(), params), () => pageTexts() ?? { lang: 'en', catalogue: en });

import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { CardForm } from './card-form.ts';

void startFrame((params) => cardFrameApp(new CardForm(), params));

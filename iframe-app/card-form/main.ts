import { startFrame } from '../shared/host.ts';
import { CardForm } from './card-form.ts';

void startFrame(() => new CardForm());

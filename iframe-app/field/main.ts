import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { textsAtWidth } from '../shared/known-width.ts';
import { CardFieldElement } from './card-field.ts';

void startFrame((params) => {
  if (!params.field || !params.group) return undefined;
  const el = new CardFieldElement();
  el.field = params.field;
  el.group = params.group;
  return cardFrameApp(el, params);
}, textsAtWidth);

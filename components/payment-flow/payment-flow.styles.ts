/** `<cpe-card>`'s: a block reserving the form's and the button's height, with the 3-D Secure modal. */
export { default } from '../card/card.styles.ts';

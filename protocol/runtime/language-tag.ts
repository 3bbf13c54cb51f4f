/** A BCP 47 language tag as the elements take it and the frames and service read it: `en`, `pt-BR`, `zh-Hant-TW`. */
export const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

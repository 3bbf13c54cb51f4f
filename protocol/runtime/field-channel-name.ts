/** The zod-free part of the field channel (its schemas: protocol/schemas/field-channel.ts) (the field frames import this one, and its generated guard). */
export const FIELD_CHANNEL_VERSION = 1;

export const fieldChannelName = (group: string) => `cpe-fields:${group}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else is refused before it reaches a query (it would be a 500 there). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

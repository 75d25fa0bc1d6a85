// The support calls' shapes; filled in as the calls land.
export {};

// The admin-figures calls' shapes; filled in as the calls land.
export {};

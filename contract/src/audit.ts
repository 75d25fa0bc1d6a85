// The audit calls' shapes; filled in as the calls land.
export {};

// The admin-system calls' shapes; filled in as the calls land.
export {};

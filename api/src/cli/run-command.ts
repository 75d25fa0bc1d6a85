/**
 * Runs a command-line entry point: what went wrong is told in its message, exit code 1, no stack
 * trace (the errors these commands expect are written as sentences for the operator).
 */
export function runCommand(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}

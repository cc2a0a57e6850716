// A stand-in for the cloudvault command that accepts every command and does nothing: the
// harness's own test runs the scenario with it to prove the checks catch a client that does not sync.
process.exitCode = 0;

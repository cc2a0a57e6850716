/** What services report outside a request (sweepers, payment events): pino's shape, console by default. */
export interface ServiceLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export const consoleLog: ServiceLog = {
  error: (details, message) => console.error(message, details),
  warn: (details, message) => console.warn(message, details),
};

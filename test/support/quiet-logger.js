// Nest's static logger, for every app a test creates without a logger of its own, writes into the buffer that
// quiet-environment.js prints when a test fails. Apps given a logger (or `logger: false`) keep theirs.
const { ConsoleLogger, Logger } = require('@nestjs/common');

class HeldLogger extends ConsoleLogger {
  constructor() {
    super({ colors: false });
  }
  printMessages(messages, context = '', logLevel = 'log', writeStreamType) {
    const held = globalThis.__mcpHeldLogs;
    if (!held) return super.printMessages(messages, context, logLevel, writeStreamType);
    for (const message of messages) {
      held.push(
        `${logLevel.toUpperCase()} [${context}] ${typeof message === 'string' ? message : JSON.stringify(message)}\n`,
      );
    }
  }
  printStackTrace(stack) {
    globalThis.__mcpHeldLogs?.push(`${stack}\n`);
  }
}

Logger.overrideLogger(new HeldLogger());

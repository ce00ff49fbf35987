import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { nodeResponse } from '../http-adapter/node-http';
import { sendHttpError } from '../errors/send-http-error';
import { ErrorCode } from '../wire/json-rpc';
import { McpOriginRefusal } from './origin-refusal.error';

/** Answers McpOriginGuard's refusals: the status and a JSON-RPC `-32600` error body with the request id. @internal */
@Catch(McpOriginRefusal)
export class McpOriginRefusalFilter implements ExceptionFilter {
  catch(error: McpOriginRefusal, host: ArgumentsHost): void {
    sendHttpError(
      nodeResponse(host.switchToHttp().getResponse()),
      error.refusal.status,
      ErrorCode.InvalidRequest,
      error.refusal.message,
    );
  }
}

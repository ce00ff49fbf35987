import { Inject } from '@nestjs/common';
import { downstreamToken } from './downstream.constants';

/**
 * Injects the client of downstream `name` (declared with `McpDownstreamModule.register({ name, ... })`).
 *
 * @example constructor(@InjectDownstream('jira') private readonly jira: McpDownstreamClient) {}
 */
export const InjectDownstream = (name: string): ParameterDecorator & PropertyDecorator => Inject(downstreamToken(name));

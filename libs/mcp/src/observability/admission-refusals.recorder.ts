import { Injectable, Optional } from '@nestjs/common';
import { AdmissionRefusal, McpAdmissionRefusals } from '../admission/admission-refusals';
import { McpMetrics } from './mcp-metrics.service';
import { McpRefusalLog } from './refusal-log';

/**
 * Admission's refusals as metrics and log lines: every refusal counted in `mcp_rate_limited_total`, its log line
 * aggregated per caller and reason (see {@link McpRefusalLog}).
 * @internal
 */
@Injectable()
export class AdmissionRefusalsRecorder extends McpAdmissionRefusals {
  constructor(
    private readonly metrics: McpMetrics,
    @Optional() private readonly log?: McpRefusalLog,
  ) {
    super();
  }

  refused({ target, limit, reason, subject, detail }: AdmissionRefusal): void {
    this.metrics.rateLimited.inc({ target, limit });
    this.log?.note(reason, subject, detail);
  }
}

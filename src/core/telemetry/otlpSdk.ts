import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, type LogRecordProcessor, type ReadableLogRecord, type SdkLogRecord } from '@opentelemetry/sdk-logs';
import type { TelemetryConfig } from './telemetryConfig';
import type { OtlpLogEntry, OtlpSender } from './otlpLogEntry';

/**
 * The OpenTelemetry side of the export, loaded by recordExporter.ts only when an endpoint is configured (the
 * packages cost a hook process nothing otherwise). The SDK builds each log record (resource, scope, times) and the
 * OTLP/HTTP exporter sends a batch; the queue, its bound and the batching stay with the caller.
 */
export function createOtlpSender(config: TelemetryConfig, version: string, timeoutMs: number): OtlpSender {
  const collected: ReadableLogRecord[] = [];
  // Hands each record the SDK built straight back to the sender: the batching is ours (bounded, drops counted).
  const collector: LogRecordProcessor = {
    onEmit: (record: SdkLogRecord) => void collected.push(record as unknown as ReadableLogRecord),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const provider = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version }), processors: [collector] });
  const logger = provider.getLogger('intent-governor', version);
  const exporter = new OTLPLogExporter({ url: config.url, headers: config.headers, timeoutMillis: timeoutMs });
  return {
    send(entries: readonly OtlpLogEntry[]): Promise<string | undefined> {
      collected.length = 0;
      for (const entry of entries) {
        logger.emit({
          timestamp: entry.time,
          severityNumber: entry.warning ? SeverityNumber.WARN : SeverityNumber.INFO,
          severityText: entry.warning ? 'WARN' : 'INFO',
          eventName: entry.eventName,
          body: entry.body,
          attributes: entry.attributes,
        });
      }
      const batch = collected.splice(0);
      return new Promise((resolve) => {
        try {
          exporter.export(batch, (result) => resolve(result.code === 0 ? undefined : (result.error?.message ?? 'export failed')));
        } catch (error) {
          resolve(error instanceof Error ? error.message : String(error));
        }
      });
    },
    async shutdown() {
      await exporter.shutdown().catch(() => undefined);
    },
  };
}

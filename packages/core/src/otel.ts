// @snowkey/core/otel: snowkey's metrics through the OpenTelemetry API (`@opentelemetry/api`, an
// optional peer dependency). The main entry never imports it: without this entry, nothing of
// OpenTelemetry is loaded and nothing is counted beyond the plain numbers of `stats()`.
export { type MetricSource, type SnowkeyMetricsOptions, snowkeyMetrics } from './otel/snowkey-metrics.js';

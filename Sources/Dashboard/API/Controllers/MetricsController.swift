import Foundation
import Hummingbird
import Prometheus
import Store
import Traffic
import UseCases

/// `/metrics`: the numbers of `MetricsReport` in Prometheus' text format (version 0.0.4), for a
/// Prometheus to scrape (docs/metrics.md has the scrape configuration and a Grafana panel's queries).
struct MetricsController: Sendable {
  /// The store.
  let store: Store
  /// The query logs the per-list counts come from (`serve --log`).
  let logs: [LogSource]

  /// The version `sanehosts_build_info` reports.
  let version: String

  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      let text = Self.text(try await MetricsReport.read(store: store, logs: logs), now: Date(), version: version)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
    return routes
  }

  /// The report as Prometheus' text: every series with its HELP and TYPE lines.
  static func text(_ report: MetricsReport, now: Date, version: String = "") -> String {
    let registry = PrometheusCollectorRegistry()
    registry.gauge(
      name: "sanehosts_build_info", labels: [("version", version)], help: "Always 1: the SaneHosts version serving."
    ).set(1.0)
    for (action, count) in [("allow", report.rules.allow), ("deny", report.rules.deny)] {
      registry.gauge(
        name: "sanehosts_rules", labels: [("action", action)], help: "The active profile's allow and deny rules."
      ).set(Double(count))
    }
    registry.gauge(
      name: "sanehosts_rules_ending", help: "The active profile's allow rules for a while (allow add --for)."
    ).set(Double(report.rules.ending))
    addLists(report.lists, to: registry, now: now)
    addTargets(report.targets, to: registry)
    for replica in report.replicas {
      let labels = [("replica", replica.name), ("profile", replica.profile)]
      if let verified = replica.verifiedAt {
        registry.gauge(
          name: "sanehosts_replica_verified_timestamp_seconds", labels: labels,
          help: "When the fleet's replica was last verified by its answers (Unix time)."
        ).set(verified.timeIntervalSince1970)
      }
      if let serial = replica.serial {
        registry.gauge(
          name: "sanehosts_replica_serial", labels: labels,
          help: "The policy zone's serial the replica answered when last verified."
        ).set(Double(serial))
      }
    }
    if let score = report.testScore {
      registry.gauge(
        name: "sanehosts_blocker_test_score_percent",
        help: "The last blocker test: blocked domains in percent of the conclusive outcomes."
      ).set(score.percent)
      registry.gauge(
        name: "sanehosts_blocker_test_timestamp_seconds", help: "When the last blocker test ran (Unix time)."
      ).set(score.at.timeIntervalSince1970)
    }
    if let update = report.lastUpdate {
      registry.gauge(name: "sanehosts_update_duration_seconds", help: "How long the last update took.")
        .set(update.seconds)
      registry.gauge(name: "sanehosts_update_timestamp_seconds", help: "When the last update ended (Unix time).")
        .set(update.at.timeIntervalSince1970)
      registry.gauge(
        name: "sanehosts_update_success", help: "1 when the last update fetched at least one source, else 0."
      ).set(update.succeeded ? 1.0 : 0.0)
    }
    if report.logsConfigured {
      registry.gauge(
        name: "sanehosts_query_logs_readable",
        help: "1 when the configured query logs (serve --log) were read for the per-list counts, 0 when they failed."
      ).set(report.logsProblem == nil ? 1.0 : 0.0)
    }
    return registry.emitToString()
  }

  /// Per list: names, age, last result, blocked queries and unique blocked names.
  static func addLists(_ lists: [MetricsReport.List], to registry: PrometheusCollectorRegistry, now: Date) {
    for list in lists {
      let labels = [("list", list.key)]
      if let names = list.names {
        registry.gauge(
          name: "sanehosts_list_names", labels: labels, help: "Unique names in the list's copy in use."
        )
        .set(Double(names))
      }
      if let success = list.lastSuccess {
        registry.gauge(
          name: "sanehosts_list_last_success_timestamp_seconds", labels: labels,
          help: "When the list was last fetched or checked successfully (Unix time)."
        ).set(success.timeIntervalSince1970)
        registry.gauge(
          name: "sanehosts_list_age_seconds", labels: labels,
          help: "Seconds since the list was last fetched or checked successfully."
        ).set(max(0, now.timeIntervalSince(success)))
      }
      if let succeeded = list.lastUpdateSucceeded {
        registry.gauge(
          name: "sanehosts_list_last_update_success", labels: labels,
          help: "1 when the list's last update attempt succeeded, 0 when it failed (its last good copy is used)."
        ).set(succeeded ? 1.0 : 0.0)
      }
      if let queries = list.blockedQueries {
        registry.counter(
          name: "sanehosts_list_blocked_queries_total", labels: labels,
          help: "Queries in the configured DNS logs that the active profile blocks through this list."
        ).increment(by: Int64(queries))
      }
      if let names = list.uniqueBlocked {
        registry.gauge(
          name: "sanehosts_list_unique_blocked_names", labels: labels,
          help: "Distinct names asked in the configured DNS logs that this list blocks."
        ).set(Double(names))
      }
    }
  }

  /// Per applied file: names, when applied and verified, the primary's serial, the apply's duration.
  static func addTargets(_ targets: [MetricsReport.Target], to registry: PrometheusCollectorRegistry) {
    for target in targets {
      let labels = [("target", target.target), ("path", target.path), ("profile", target.profile ?? "")]
      registry.gauge(name: "sanehosts_target_names", labels: labels, help: "Names the applied file holds.")
        .set(Double(target.names))
      registry.gauge(
        name: "sanehosts_target_applied_timestamp_seconds", labels: labels,
        help: "When the file was last written (Unix time)."
      ).set(target.appliedAt.timeIntervalSince1970)
      if let verified = target.verifiedAt {
        registry.gauge(
          name: "sanehosts_target_verified_timestamp_seconds", labels: labels,
          help:
            "When the server last confirmed loading the file: a reload, or a verification by its answers (Unix time)."
        ).set(verified.timeIntervalSince1970)
      }
      if let serial = target.serial {
        registry.gauge(
          name: "sanehosts_target_serial", labels: labels,
          help: "The fleet primary's policy-zone serial when it last confirmed the change."
        ).set(Double(serial))
      }
      if let seconds = target.applySeconds {
        registry.gauge(
          name: "sanehosts_apply_duration_seconds", labels: labels, help: "How long the file's last apply took."
        ).set(seconds)
      }
    }
  }
}

extension PrometheusCollectorRegistry {
  /// A gauge named `name` (unit in the name already) with `labels` and its HELP text.
  fileprivate func gauge(name: String, labels: [(String, String)] = [], help: String) -> Gauge {
    makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
  }

  /// A counter named `name` with `labels` and its HELP text.
  fileprivate func counter(name: String, labels: [(String, String)] = [], help: String) -> Counter {
    makeCounter(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
  }
}

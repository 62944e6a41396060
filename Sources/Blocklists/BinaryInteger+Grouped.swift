import Foundation

extension BinaryInteger {
  /// The number with thousands separators, the same on every machine: 1,234,567.
  package var grouped: String { Int(self).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
}

extension BinaryInteger {
  /// The number, grouped, with its noun in the singular for one and the plural otherwise: "1 name",
  /// "2,048 names"; `plural` when it is not the singular with an s ("1 query", "3 queries").
  package func counted(_ singular: String, _ plural: String? = nil) -> String {
    "\(grouped) \(self == 1 ? singular : plural ?? singular + "s")"
  }
}

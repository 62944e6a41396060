import Foundation

extension BinaryInteger {
  /// The number with thousands separators, the same on every machine: 1,234,567.
  package var grouped: String { Int(self).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
}

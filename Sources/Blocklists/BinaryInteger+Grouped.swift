extension BinaryInteger {
  /// The number with thousands separators, the same on every machine: 1,234,567.
  ///
  /// Written by hand: Foundation's number format style set up an ICU formatter on first use, 0.6 ms of
  /// every short command.
  package var grouped: String {
    let digits = String(self.magnitude)
    var result = self < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return result
  }
}

extension BinaryInteger {
  /// The number, grouped, with its noun in the singular for one and the plural otherwise: "1 name",
  /// "2,048 names"; `plural` when it is not the singular with an s ("1 query", "3 queries").
  package func counted(_ singular: String, _ plural: String? = nil) -> String {
    "\(grouped) \(self == 1 ? singular : plural ?? singular + "s")"
  }
}

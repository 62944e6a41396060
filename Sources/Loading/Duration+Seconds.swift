extension Duration {
  /// The duration as a number of seconds, including the fractional part.
  public var secondsValue: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

import ArgumentParser

/// `--json`: what a command prints, as JSON on standard output instead of text.
struct OutputOptions: ParsableArguments {
  @Flag(help: "Print JSON on standard output instead of text (keys sorted, dates in ISO 8601).")
  var json = false

  /// Writes `value` as JSON, or the text `text` makes, on standard output.
  func write(_ value: some Encodable, text: () -> String) {
    Terminal.writeOutput(json ? Text.json(value) : text())
  }
}

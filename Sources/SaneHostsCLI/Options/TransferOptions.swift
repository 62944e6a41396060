import Apply
import ArgumentParser
import DNS

/// `--transfer-to IP[:PORT]…`, `--tsig` and `--primary-address`: `apply --target bind` as the fleet's
/// primary, the zone sent to this machine's BIND as signed updates and from it to the secondaries.
struct TransferOptions: ParsableArguments {
  @Option(
    name: .customLong("transfer-to"),
    help: ArgumentHelp(
      "With --target bind: make this machine's BIND the primary of the zone for this secondary (IP or IP:port; repeat for each): allowed to transfer it and notified of each change.",
      valueName: "address"))
  var secondaries: [String] = []
  @Flag(help: "With --transfer-to: secondaries transfer with a key (TSIG, generated once) instead of by address.")
  var tsig = false
  @Option(
    help: ArgumentHelp(
      "With --transfer-to: where this machine's BIND answers SaneHosts' updates.", valueName: "address"))
  var primaryAddress = "127.0.0.1:53"

  /// Whether apply makes BIND the primary.
  var isPrimary: Bool { !secondaries.isEmpty || tsig }

  func validate() throws {
    for text in secondaries + [primaryAddress] where (try? ServerAddress(parsing: text)) == nil {
      throw ValidationError("--transfer-to and --primary-address take IP or IP:port ([v6]:port), not “\(text)”.")
    }
  }

  /// Why these options cannot go with the rest of `apply`'s, or nil.
  func refusal(target: Target, reload: Bool, verify: String?) -> String? {
    guard isPrimary else { return nil }
    if target != .server(.bind) {
      return "--transfer-to and --tsig make BIND the primary: use them with --target bind."
    }
    if reload { return "--transfer-to sends the change to BIND as updates: leave out --reload." }
    if verify != nil {
      return "The primary answers no recursive queries: verify the secondaries with sanehosts fleet status."
    }
    return nil
  }

  /// The primary's setup, or nil when apply writes an ordinary drop-in.
  func setup() throws -> PrimarySetup? {
    guard isPrimary else { return nil }
    return PrimarySetup(
      address: try ServerAddress(parsing: primaryAddress),
      secondaries: try secondaries.map { try ServerAddress(parsing: $0) }, signTransfers: tsig)
  }
}

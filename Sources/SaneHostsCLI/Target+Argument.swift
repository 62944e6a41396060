import Apply
import ArgumentParser

/// `--target NAME`: one of the table's names; anything else is an error naming them all (never the hosts
/// file by default). Completions and `--help` list the same names.
extension Target: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }

  public static var allValueStrings: [String] { all.map(\.name) }

  public var defaultValueDescription: String { name }

  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

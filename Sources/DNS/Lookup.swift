/// The answers to a name's A and AAAA queries, asked at the same time.
public struct Lookup: Sendable {
  /// The name asked for.
  public var name: String
  /// The A query's reply, or why there is none.
  public var a: Result<Message, ResolverError>
  /// The AAAA query's reply, or why there is none.
  public var aaaa: Result<Message, ResolverError>

  /// Creates a lookup.
  public init(name: String, a: Result<Message, ResolverError>, aaaa: Result<Message, ResolverError>) {
    self.name = name
    self.a = a
    self.aaaa = aaaa
  }

  /// The addresses in both replies' answer sections, IPv4 first; empty when neither has any.
  public var addresses: [IPAddress] {
    ((try? a.get().addresses) ?? []) + ((try? aaaa.get().addresses) ?? [])
  }
}

extension Resolver {
  /// Asks for `name`'s A and AAAA records at the same time, each within `timeout`, and returns both
  /// outcomes, so that a caller can tell blocked (unspecified addresses or NXDOMAIN), reachable and
  /// inconclusive (a timeout or an error) apart.
  public func lookup(_ name: String, timeout: Duration) async -> Lookup {
    await withTaskGroup(of: (RecordType, Result<Message, ResolverError>).self) { group in
      for type in [RecordType.a, .aaaa] {
        group.addTask {
          do throws(ResolverError) {
            return (type, .success(try await query(name, type, timeout: timeout)))
          } catch {
            return (type, .failure(error))
          }
        }
      }
      var lookup = Lookup(name: name, a: .failure(.cancelled), aaaa: .failure(.cancelled))
      for await (type, result) in group {
        if type == .a { lookup.a = result } else { lookup.aaaa = result }
      }
      return lookup
    }
  }
}

extension Resolver {
  /// Asks for `name`'s A and AAAA records at the same time, each within `timeout`, and returns both
  /// outcomes, so that a caller can tell blocked (unspecified addresses or NXDOMAIN), reachable and
  /// inconclusive (a timeout or an error) apart.
  ///
  /// Each reply goes to its query's slot by construction (two `async let`s), never by a value handed back
  /// from a child task: Swift 6.3's optimizer corrupted the record type returned beside a result from a
  /// `do throws` block in a task-group child, so both replies landed in the AAAA slot and whichever came
  /// last won (`sanehosts test` then scored a server that answers A and refuses AAAA differently on
  /// every run).
  public func lookup(_ name: String, timeout: Duration) async -> Lookup {
    async let a = outcome(name, .a, timeout: timeout)
    async let aaaa = outcome(name, .aaaa, timeout: timeout)
    return Lookup(name: name, a: await a, aaaa: await aaaa)
  }

  /// One query's reply, or why there is none.
  private func outcome(_ name: String, _ type: RecordType, timeout: Duration) async -> Result<Message, ResolverError> {
    let result: Result<Message, ResolverError>
    do throws(ResolverError) {
      result = .success(try await query(name, type, timeout: timeout))
    } catch {
      result = .failure(error)
    }
    return result
  }
}

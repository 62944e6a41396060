import DNS

extension DNSProbe {
  /// The longest CNAME chain followed (the name itself included).
  static let chainLimit = 8

  /// The CNAME chain of a reply, the asked name first: each alias's target in turn, as the answer
  /// section gives them (at most `chainLimit` names; a loop ends it).
  public static func chain(of name: String, in reply: Message) -> [String] {
    var chain = [name]
    var current = name.lowercased()
    while chain.count < chainLimit {
      let next = reply.answers.first {
        $0.name.lowercased() == current && $0.type == .cname
      }
      guard case .cname(let target) = next?.data, !chain.contains(where: { $0.lowercased() == target.lowercased() })
      else { break }
      chain.append(target)
      current = target.lowercased()
    }
    return chain
  }

  /// The verdict once leaks are looked for: a blocked name whose HTTPS record still hands out a routable
  /// address hint, or a reachable name whose CNAME chain passes through a name the server blocks when
  /// asked for it (CNAME cloaking), is `leaking`. Other verdicts stay as they are.
  func withLeaks(_ verdict: Verdict, _ lookup: Lookup) async -> Verdict {
    var verdict = verdict
    let chain = (try? lookup.a.get()).map { Self.chain(of: lookup.name, in: $0) } ?? [lookup.name]
    if chain.count > 1 { verdict.chain = chain }
    switch verdict.outcome {
    case .blocked:
      return await httpsLeak(of: lookup.name, chain: verdict.chain) ?? verdict
    case .reachable where chain.count > 1:
      return await cnameLeak(verdict, chain: chain) ?? verdict
    default:
      return verdict
    }
  }

  /// `leaking` when the name's HTTPS record (type 65) carries a routable address hint; nil when it has no
  /// such record or the query got no usable answer (that alone proves nothing).
  func httpsLeak(of name: String, chain: [String]?) async -> Verdict? {
    guard let reply = try? await resolver.query(name, ServiceBinding.https, timeout: timeout),
      reply.responseCode == .noError
    else { return nil }
    let hints = reply.answers.compactMap(\.serviceBinding).flatMap(\.hints).map(\.description)
    let routable = hints.filter { !sinkholes.contains($0) }
    guard let first = routable.first else { return nil }
    return Verdict(
      .leaking, "leaks via HTTPS record: A and AAAA blocked, address hint \(first)", addresses: routable, chain: chain)
  }

  /// `leaking` when a name of the chain after the first is blocked when asked for by itself, while the
  /// chain's answer is a routable address: the server checks only the name asked (CNAME cloaking).
  func cnameLeak(_ verdict: Verdict, chain: [String]) async -> Verdict? {
    for target in chain.dropFirst() {
      let alone = self.verdict(await resolver.lookup(target, timeout: timeout))
      guard alone.outcome == .blocked else { continue }
      return Verdict(
        .leaking,
        "leaks via CNAME: \(chain.joined(separator: " → ")) answers \(verdict.reason), though \(target) is blocked (\(alone.reason))",
        addresses: verdict.addresses, chain: chain)
    }
    return nil
  }
}

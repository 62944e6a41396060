import Apply
import Store
import Testing

@testable import UseCases

@Suite("What a replica costs, weighed against its memory (FleetCost)")
struct FleetCostTests {
  @Test("A transfer replica whose memory the profile would fill more than half of is warned about; others not")
  func warning() {
    var small = Replica(id: 1, profileID: 1, name: "pi", feed: .transfer, resolver: "10.0.0.3", kind: "unbound")
    small.memoryMiB = 512
    let warning = FleetCost.warning(for: small, names: 415_743)
    #expect(warning?.hasPrefix("pi has 512 MiB: unbound (rpz) holds these 415,743 names in about 350 MiB") == true)
    #expect(FleetCost.warning(for: small, names: 100_000) == nil, "about 84 MiB fits")
    var unknown = small
    unknown.memoryMiB = nil
    #expect(FleetCost.warning(for: unknown, names: 415_743) == nil)
    let pihole = Replica(id: 2, profileID: 1, name: "p", feed: .pihole, pihole: "pi.hole")
    #expect(FleetCost.of(pihole) == nil)
    #expect(FleetCost.of(small) == ServerCost.secondary(.unbound))
  }

  @Test("The store's transfer kinds are the secondaries' (Store cannot see Apply's enum: kept equal here)")
  func kinds() {
    #expect(Replica.transferKinds == SecondaryConfiguration.Kind.allCases.map(\.rawValue))
  }

  @Test("Sizes: 512, 512M, 512MiB, 1G, 1GiB; nothing else")
  func sizes() {
    #expect(["512", "512M", "512mib", "512MB"].map(FleetCost.mebibytes) == [512, 512, 512, 512])
    #expect(FleetCost.mebibytes("1G") == 1024 && FleetCost.mebibytes("2GiB") == 2048)
    #expect(["", "0", "-1", "1T", "M", "1.5G"].allSatisfy { FleetCost.mebibytes($0) == nil })
  }
}

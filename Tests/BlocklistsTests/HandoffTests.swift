import Testing

@testable import Blocklists

@Suite("Handing a value to a task")
struct HandoffTests {
  @Test("The value is taken once, and the task holds its only reference: changing it copies nothing")
  func takenOnce() async {
    var buffer = [UInt8](repeating: 1, count: 1 << 16)
    let address = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    let handoff = Handoff(buffer)
    buffer = []
    @Sendable func change() async -> (UInt, Bool) {
      guard var taken = handoff.take() else { return (0, false) }
      taken[0] = 2
      let again = handoff.take()
      return (taken.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }, again == nil)
    }
    async let result = change()
    let moved = await result
    #expect(moved.0 == address, "the same storage, not a copy")
    #expect(moved.1, "a second take gives nothing")
  }
}

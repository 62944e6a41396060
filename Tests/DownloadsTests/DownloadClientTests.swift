import Downloads
import Foundation
import TestSupport
import Testing

@Suite("The download client interface")
struct DownloadClientTests {
  let url = URL(string: "https://lists.website/hosts")!

  @Test("download(url, expectedSize:) sends an unconditional request with the expected size")
  func convenience() async {
    let client = ScriptedDownloadClient()
    client.script(url, [.event(.connecting(attempt: 1)), .event(.failed(.httpStatus(url: "u", code: 500)))])
    let all = await collectEvents(client.download(url, expectedSize: 1234))
    #expect(all.count == 2)
    #expect(client.requests == [DownloadRequest(url: url, expectedSize: 1234)])
  }

  @Test("A scripted client can be cancelled while a transfer waits, and says so")
  func cancelScripted() async {
    let client = ScriptedDownloadClient()
    client.script(url, [.event(.connecting(attempt: 1)), .gate("body"), .event(.failed(.cancelled(url: "never")))])
    var seen: [DownloadEvent] = []
    for await event in client.download(url) {
      seen.append(event)
      if case .connecting = event { await client.cancel(url) }
    }
    #expect(seen == [.connecting(attempt: 1), .failed(.cancelled(url: url.absoluteString))])
  }
}

import Apply
import Foundation
import HTTPTypes
import Store
import Testing

@testable import Dashboard

@Suite("Error payloads")
struct ErrorPayloadTests {
  @Test("Each error kind gets its status and keeps its message and suggestion")
  func statuses() {
    let cases: [(any Error, HTTPResponse.Status)] = [
      (DashboardError.alreadyRunning(job: "update"), .conflict),
      (DashboardError.notFound("x"), .notFound),
      (DashboardError.badRequest("x"), .badRequest),
      (StoreError.notFound(kind: "source", name: "a", known: []), .notFound),
      (StoreError.alreadyExists(kind: "profile", name: "a"), .conflict),
      (StoreError.invalid(value: "<x>", reason: "is not a name"), .badRequest),
      (ApplyError.notPermitted(path: "/etc/hosts", detail: "EACCES", isRoot: false), .forbidden),
      (ApplyError.noSuchBackup(id: "b", known: []), .notFound),
      (ApplyError.changedMeanwhile(path: "/h"), .conflict),
      (ApplyError.nothingToApply(profile: "p", reason: .noEnabledSource), .badRequest),
      (CocoaError(.fileReadUnknown), .internalServerError),
    ]
    for (error, status) in cases {
      let (payload, got) = ErrorPayload.from(error)
      #expect(got == status, "\(error)")
      #expect(!payload.error.isEmpty)
    }
    let (payload, _) = ErrorPayload.from(StoreError.notFound(kind: "source", name: "ads", known: ["b"]))
    #expect(payload.error.contains("ads"))
  }

  @Test("A decoding error names the field")
  func decoding() throws {
    struct Body: Decodable { var url: String }
    do {
      _ = try JSONDecoder().decode(Body.self, from: Data("{}".utf8))
      Issue.record("decoded")
    } catch {
      let (payload, status) = ErrorPayload.from(error)
      #expect(status == .badRequest)
      #expect(payload.error == "The request is not valid: the field \"url\" is missing.")
    }
  }
}

import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct PlanTests {
    @Test func plansWithExactTimingAndCopies() throws {
        let manifest = FakeSets.manifest(gapMs: 20)
        let plan = try Planner(manifest: manifest).plan(try Amount("2.22"))
        #expect(plan.tokens == ["received", "2", "point", "2", "2", "yuan"])
        #expect(plan.clips == ["received", "2", "point", "2", "2Copy", "yuan"])
        #expect(plan.steps.map(\.file) == ["received.caf", "2.caf", "point.caf", "2.caf", "2Copy.caf", "yuan.caf"])
        let frames = plan.clips.map { name in manifest.clip(named: name.replacingOccurrences(of: "Copy", with: ""))!.frames }
        #expect(plan.steps.map(\.frames) == frames)
        #expect(plan.gapFrames == 20)
        #expect(plan.totalFrames == frames.reduce(0, +) + 5 * 20)
        #expect(plan.totalSeconds == Double(plan.totalFrames) / 1000)
        var start = 0
        for step in plan.steps {
            #expect(step.startFrame == start)
            #expect(step.start == Double(start) / 1000)
            start += step.frames + 20
        }
    }

    @Test func listsEveryMissingClipAndCopy() throws {
        let manifest = FakeSets.manifest(copies: [])
        #expect(throws: PlanError.missingClips(["2Copy"])) { try Planner(manifest: manifest).plan(try Amount("2.22")) }
        #expect(throws: PlanError.missingClips(["dollars", "and", "50", "cents"])) {
            try Planner(manifest: manifest).plan(try Amount("2.5"), locale: .enUS)
        }
        #expect(PlanError.missingClips(["liang"]).description == "the sound set has no clip for liang (record it and run soundset build)")
    }

    @Test func optionsOverrideTheManifest() throws {
        let plan = try Planner(manifest: FakeSets.manifest()).plan(
            try Amount("200.5"), reading: ReadingOptions(style: .yuanJiaoFen), announcement: AnnouncementSettings(prefix: nil))
        #expect(plan.clips == ["2", "hundred", "yuan", "5", "jiao"])
    }

    @Test func schedulesTheChain() throws {
        let plan = try Planner(manifest: FakeSets.manifest(gapMs: 50)).plan(try Amount("123.45"))
        let schedule = try NotificationSchedule(plan: plan, announcementID: "push-42")
        #expect(schedule.items.map(\.sound) == plan.steps.map(\.file))
        #expect(schedule.items.map(\.delay) == plan.steps.map(\.start))
        #expect(schedule.items.map(\.identifier) == plan.steps.indices.map { "push-42.\($0)" })
        #expect(Set(schedule.items.map(\.identifier)).count == schedule.items.count)
        #expect(throws: ScheduleError.emptyIdentifier) { try NotificationSchedule(plan: plan, announcementID: "") }
    }

    @Test func refusesTooManyStepsOrTooLong() throws {
        var plan = try Planner(manifest: FakeSets.manifest()).plan(try Amount("1"))
        let step = plan.steps[0]
        plan.steps = Array(repeating: step, count: 65)
        #expect(throws: ScheduleError.tooManySteps(65)) { try NotificationSchedule(plan: plan, announcementID: "a") }
        // The chain lasts until its last sound ends: 30 s at the plan's 1000 Hz is too long.
        var long = step
        long.frames = 30_000
        plan.steps = [long]
        #expect(throws: ScheduleError.tooLong(30)) { try NotificationSchedule(plan: plan, announcementID: "a") }
    }
}

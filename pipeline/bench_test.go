package pipeline

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"
)

// work is a stage body of realistic size for the container stage: hashing
// an 8 KiB bitcode slice.
var workData = make([]byte, 8<<10)

func work() Result {
	sha256.Sum256(workData)
	return Pass()
}

// BenchmarkEngineOverhead runs the same items through the engine (one
// worker, two stages) and through a plain loop calling the stages, in one
// benchmark, and reports the ratio as engine/loop.
func BenchmarkEngineOverhead(b *testing.B) {
	const items = 16841
	run := func(context.Context, *item) Result { return work() }
	stages := []Stage[*item]{{Name: "a", PerOccurrence: true, Run: run}, {Name: "b", PerOccurrence: true, Run: run}}
	var engineTime, loopTime time.Duration
	for b.Loop() {
		start := time.Now()
		e := &Engine[int, *item]{Expand: expandBy(1), Jobs: 1, Stages: stages, Sink: func(Done[*item]) error { return nil }}
		if err := e.Run(context.Background(), sources(items)); err != nil {
			b.Fatal(err)
		}
		engineTime += time.Since(start)

		start = time.Now()
		for i := range items {
			for _, it := range expandBy(1)(context.Background(), i).Items {
				for _, s := range stages {
					if r := s.Run(context.Background(), it); r.Status != Passed {
						b.Fatal(r)
					}
				}
			}
		}
		loopTime += time.Since(start)
	}
	b.ReportMetric(float64(engineTime)/float64(loopTime), "engine/loop")
	b.ReportMetric(float64(engineTime.Nanoseconds())/float64(b.N*items), "engine-ns/module")
	b.ReportMetric(float64(loopTime.Nanoseconds())/float64(b.N*items), "loop-ns/module")
}

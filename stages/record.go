package stages

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/pipeline"
)

// RunInfo is what every row of one run shares.
type RunInfo struct {
	ID      string
	Started time.Time
	// Stages are the names of the run's stages, in order.
	Stages []string
}

// Record turns one finished module into its results row.
func Record(run RunInfo, d pipeline.Done[*Module]) analytics.Row {
	m := d.Item
	row := analytics.Row{
		RunID: run.ID, RunStarted: run.Started.UnixMilli(), SchemaVersion: analytics.SchemaVersion,
		Source: m.Library.Source, LibrarySHA256: m.Library.SHA256,
		FunctionIndex: int32(m.Index), BitcodeSHA256: m.SHA256,
		ContainerKind: m.Library.Kind, ContainerOffset: m.Library.Offset,
	}
	if l := m.Library.Lib; l != nil {
		row.Platform = mtlb.PlatformName(l.Platform)
		row.TargetOS = mtlb.TargetOSName(l.TargetOS)
		row.OSVersion = fmt.Sprintf("%d.%d", l.OSMajor, l.OSMinor)
		row.LibraryType = mtlb.LibraryTypeName(l.LibraryType)
		row.FormatVersion = fmt.Sprintf("%d.%d", l.FormatMajor, l.FormatMinor)
	}
	if f := m.Function; f != nil {
		row.Function = f.Name
		row.FunctionType = mtlb.FunctionTypeName(f.Type)
		if f.HasVersion {
			row.AIRVersion = fmt.Sprintf("%d.%d", f.AIRMajor, f.AIRMinor)
			row.LanguageVersion = fmt.Sprintf("%d.%d", f.LangMajor, f.LangMinor)
		}
		row.BitcodeBytes = int64(len(f.Bitcode))
	}

	features := map[string]bool{}
	stopped, chain := false, true
	for i, name := range run.Stages {
		res := d.Results[i]
		status := res.Status
		if status == "" {
			status = pipeline.NotRun
		}
		builtIn := slices.Contains(analytics.StageNames, name)
		if builtIn {
			row.SetStage(name, string(status), res.Duration.Milliseconds())
		} else {
			// A stage inserted by --stage-config has no columns of its own:
			// its status and time go to data, its verdict to the failure
			// columns like any stage's.
			row.Data = append(row.Data, fmt.Sprintf("%s.status=%s", name, status), fmt.Sprintf("%s.ms=%d", name, res.Duration.Milliseconds()))
		}
		for _, f := range res.Features {
			features[f] = true
		}
		for _, f := range res.Missing {
			row.Missing = append(row.Missing, analytics.Finding{Code: string(f.Code), Detail: f.Detail})
		}
		if t := res.Data["targets"]; name == "compile" && t != "" {
			row.CompileTarget = t
		}
		if n := res.Data["device_name"]; name == "device" && n != "" {
			row.DeviceName = n
		}
		for k, v := range res.Data {
			row.Data = append(row.Data, name+"."+k+"="+v)
		}
		if stopped {
			continue
		}
		if status == pipeline.Passed {
			if builtIn && chain {
				row.StageReached = name
			}
			continue
		}
		chain = false
		if status == pipeline.Skipped {
			// Excluded by the user: the module went on, but no stage after
			// this one extends stage_reached.
			if row.StatusReason == "" {
				row.StatusReason = res.Message
			}
			continue
		}
		stopped = true
		row.FailedStage = name
		switch status {
		case pipeline.Failed, pipeline.NotRun:
			row.FailureCode, row.FailureDetail, row.FailureMessage = string(res.Code), res.Detail, res.Message
			if len(res.Missing) == 0 && res.Code != "" {
				// A failure that names no missing feature (a mismatch, a
				// refused record) is its own one blocker, so a query over
				// missing counts what airpipe features counts.
				row.Missing = append(row.Missing, analytics.Finding{Code: string(res.Code), Detail: res.Detail})
			}
		default:
			row.StatusReason = res.Message
			if res.Code != "" {
				row.StatusReason = string(res.Code) + ": " + res.Message
			}
		}
		if status != pipeline.Failed && status != pipeline.NotRun {
			// Set aside (unjudged, unavailable, skipped), not failed.
			row.FailedStage = ""
		}
	}
	for f := range features {
		row.Features = append(row.Features, f)
	}
	sort.Strings(row.Features)
	sort.Strings(row.Data)
	return row
}

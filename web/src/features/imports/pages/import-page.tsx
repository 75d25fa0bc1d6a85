import { IMPORT_KINDS, type ImportKind } from '@coverdesk/contract';
import { Stack, Stepper, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { useDevice } from '../../../lib/viewport.js';
import { useImport } from '../api.js';
import { CheckStep } from '../components/check-step.js';
import { MappingStep } from '../components/mapping-step.js';
import { RunStep } from '../components/run-step.js';
import { UploadStep } from '../components/upload-step.js';

const STEPS = ['upload', 'columns', 'check', 'run'] as const;
type Step = (typeof STEPS)[number];
const STEP_LABELS: Record<Step, string> = {
  upload: 'Upload',
  columns: 'Columns',
  check: 'Check',
  run: 'Import',
};

const kindOf = (value: string | null): ImportKind =>
  IMPORT_KINDS.includes(value as ImportKind) ? (value as ImportKind) : 'policies';

/**
 * /policy-import: a spreadsheet of customers, policies or leads brought in four steps. The import and
 * the step are in the address, so a reload (or a broker coming back later) finds a running import's
 * progress again.
 */
export function Component() {
  const [params, setParams] = useSearchParams();
  const kind = kindOf(params.get('kind'));
  const importId = params.get('import');
  const record = useImport(importId);
  const mobile = useDevice() === 'mobile';

  const go = (next: Partial<{ kind: ImportKind; import: string | null; step: Step | null }>) =>
    setParams((current) => {
      const url = new URLSearchParams(current);
      for (const [key, value] of Object.entries(next)) {
        if (value === null || value === undefined) url.delete(key);
        else url.set(key, value);
      }
      return url;
    });

  const status = record.data?.status;
  const asked = params.get('step') as Step | null;
  // A draft is being set up; a failed import committed nothing and may be set up again.
  const settingUp = status === 'draft' || (status === 'failed' && asked !== null && asked !== 'run');
  const step: Step = !importId ? 'upload' : !settingUp ? 'run' : asked === 'check' ? 'check' : 'columns';

  return (
    <Stack gap="lg" maw={1100}>
      {mobile ? (
        // Four steps stacked would fill a phone's first screen; the step in words is enough.
        <Text fw={600} aria-live="polite">
          Step {STEPS.indexOf(step) + 1} of {STEPS.length}: {STEP_LABELS[step]}
        </Text>
      ) : (
        <Stepper
          active={STEPS.indexOf(step)}
          size="sm"
          allowNextStepsSelect={false}
          aria-label="Import steps"
        >
          <Stepper.Step label={STEP_LABELS.upload} description="A CSV or XLSX file" />
          <Stepper.Step label={STEP_LABELS.columns} description="What each column holds" />
          <Stepper.Step label={STEP_LABELS.check} description="A dry run of every row" />
          <Stepper.Step label={STEP_LABELS.run} description="In the background" />
        </Stepper>
      )}
      {step === 'upload' && (
        <UploadStep
          kind={kind}
          onKind={(next) => go({ kind: next })}
          onUploaded={(id) => go({ import: id, step: 'columns' })}
        />
      )}
      {step !== 'upload' && record.isPending && <DetailSkeleton />}
      {step !== 'upload' && record.isError && (
        <ErrorState error={record.error} onRetry={() => record.refetch()} />
      )}
      {step === 'columns' && record.data && (
        <MappingStep
          record={record.data}
          onChecked={() => go({ step: 'check' })}
          onRestart={() => go({ import: null, step: null })}
        />
      )}
      {step === 'check' && record.data && (
        <CheckStep record={record.data} onBack={() => go({ step: 'columns' })} />
      )}
      {step === 'run' && record.data && (
        <RunStep
          record={record.data}
          onAnother={() => go({ import: null, step: null })}
          onColumns={() => go({ step: 'columns' })}
        />
      )}
    </Stack>
  );
}

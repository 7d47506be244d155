// Settings → Export and import: Cairn's JSON export (built by the engine), the encrypted
// backup, and the import of a Cairn export or of a ChatGPT, Claude or Open WebUI export into
// an agent, with the counts of what was stored.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { IMPORT_FORMAT_LABELS, ImportFormat } from '../../../shared/memory-export.ts';
import { useApi } from '../api/ApiContext.tsx';
import { bridge, chooseFile, saveBlob, saveFile } from '../api/connection.ts';
import { qk } from '../api/keys.ts';
import { exportMemory, importMemory, type ImportReport } from '../exportImport.ts';
import { Card, ErrorBox, Field, MutationButton, Notice, SelectField } from './ui.tsx';

function importSummary(r: ImportReport, format: ImportFormat): string {
  const stored = `${r.conversations} conversation(s), ${r.turns} exchange(s)`;
  if (format === 'cairn') {
    return `Imported ${r.agents} agent(s): ${stored}, ${r.facts} fact(s), ${r.episodes} episode(s).`;
  }
  if (r.conversations === 0)
    return 'Nothing new: every conversation in this file is already stored.';
  return `Imported ${stored}. Memory is being distilled from them in the background.`;
}

export function ExportImportCard() {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const [progress, setProgress] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>('cairn');
  const [agentId, setAgentId] = useState('');
  const agents = useQuery({ queryKey: qk.agents, queryFn: () => api.agents() });
  const exporter = useMutation({
    mutationFn: async () => {
      setProgress('Exporting…');
      const data = await exportMemory(api);
      const stamp = new Date().toISOString().slice(0, 10);
      return saveFile(JSON.stringify(data, null, 2), `cairn-memory-${stamp}.json`);
    },
    onSettled: () => setProgress(null),
  });
  const backup = useMutation({
    mutationFn: async () => {
      const data = await api.backup();
      saveBlob(data, `cairn-backup-${new Date().toISOString().slice(0, 10)}.sqlite`);
      return data.size;
    },
  });
  const importer = useMutation({
    mutationFn: async (): Promise<{ report: ImportReport; format: ImportFormat } | null> => {
      if (format !== 'cairn' && agentId.trim() === '') {
        throw new Error('Name the agent the conversations are for.');
      }
      const file = await chooseFile();
      if (!file) return null;
      const report = await importMemory(api, { format, agentId, text: file.content }, setProgress);
      return { report, format };
    },
    onSettled: () => {
      setProgress(null);
      void queryClient.invalidateQueries();
    },
  });
  const busy = exporter.isPending || importer.isPending;
  return (
    <Card title="Export and import">
      <p className="muted">
        Export writes every agent&apos;s identity, pinned facts, episodes and transcript to a JSON
        file. <strong>The file is not encrypted.</strong> Importing such a file restores each agent
        as it was. Conversations exported from ChatGPT, Claude or Open WebUI can be imported into an
        agent too: they keep their dates and are distilled into memory like an ingest.
      </p>
      <p className="muted">
        The encrypted backup is a copy of the whole database, encrypted like the original: it opens
        with this installation&apos;s key or its recovery key. To restore it, quit Cairn and put it
        in the data folder as <code>memory.sqlite</code>.
      </p>
      <div className="grid grid-2">
        <SelectField
          id={`${id}-format`}
          label="Import from"
          value={format}
          schema={ImportFormat}
          options={IMPORT_FORMAT_LABELS}
          order={ImportFormat.options}
          onChange={setFormat}
          disabled={busy}
        />
        {format === 'cairn' ? null : (
          <Field id={`${id}-agent`} label="Into agent">
            {(control) => (
              <>
                <input
                  {...control}
                  value={agentId}
                  list={`${id}-agents`}
                  maxLength={200}
                  placeholder="e.g. my-agent"
                  onChange={(e) => setAgentId(e.target.value)}
                  disabled={busy}
                />
                <datalist id={`${id}-agents`}>
                  {agents.data?.agents.map((a) => (
                    <option key={a.id} value={a.id} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        )}
      </div>
      <div className="row wrap">
        <button type="button" className="btn" onClick={() => exporter.mutate()} disabled={busy}>
          Export memory…
        </button>
        <button type="button" className="btn" onClick={() => importer.mutate()} disabled={busy}>
          Import memory…
        </button>
        <MutationButton mutation={backup} busyLabel="Writing backup…">
          Download encrypted backup
        </MutationButton>
        {bridge() ? (
          <button type="button" className="btn" onClick={() => void bridge()?.openDataFolder()}>
            Open data folder
          </button>
        ) : null}
      </div>
      {progress ? (
        <p className="muted" role="status">
          {progress}
        </p>
      ) : null}
      <ErrorBox error={exporter.error} title="Export failed" />
      <ErrorBox error={importer.error} title="Import failed" />
      <ErrorBox error={backup.error} title="Backup failed" />
      {backup.data !== undefined ? (
        <Notice tone="ok">Encrypted backup saved ({Math.ceil(backup.data / 1024)} KB).</Notice>
      ) : null}
      {exporter.data ? <Notice tone="ok">Memory exported.</Notice> : null}
      {importer.data ? (
        <Notice tone="ok">{importSummary(importer.data.report, importer.data.format)}</Notice>
      ) : null}
    </Card>
  );
}

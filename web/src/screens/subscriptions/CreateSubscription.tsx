// The create form, in a dialog: name, description and any number of sources pasted one per line.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { URI_SNIPPETS } from '../../i18n/bidi';
import { SUBSCRIPTIONS } from './strings';
import { useCreateSubscription } from './queries';
import { describeError } from './errors';

export function CreateSubscription({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(SUBSCRIPTIONS);
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [sources, setSources] = useState('');
  const [nameMissing, setNameMissing] = useState(false);

  const close = () => {
    create.reset();
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setNameMissing(trimmed === '');
    if (trimmed === '') return;
    const lines = sources
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    create.mutate(
      { name: trimmed, description: description.trim(), sources: lines },
      { onSuccess: (created) => void navigate(`/subs/${created.token}`) },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('create.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('create.close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {create.isError && (
            <Alert color="red" role="alert">
              {describeError(create.error, t)}
            </Alert>
          )}
          <TextInput
            label={t('create.name')}
            description={t('create.nameHint')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameMissing ? t('create.nameRequired') : undefined}
            maxLength={64}
            required
            data-autofocus
          />
          <TextInput
            label={t('create.description')}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            maxLength={64}
          />
          <Textarea
            label={t('create.sources')}
            description={t('create.sourcesHint', URI_SNIPPETS)}
            value={sources}
            onChange={(event) => setSources(event.currentTarget.value)}
            autosize
            minRows={4}
            maxRows={12}
            spellCheck={false}
            dir="ltr"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('create.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

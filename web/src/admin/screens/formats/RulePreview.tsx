// Asks the API which format and rule a client with the given headers would get under the rules being edited.
import { useState } from 'react';
import { Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FORMATS } from './strings';
import { usePreviewRules, type Rule } from './queries';

interface Props {
  rules: Rule[];
  /** A refused draft: its errors belong at the rules' fields. */
  onRefused: (error: unknown) => void;
  onAccepted: () => void;
}

export function RulePreview({ rules, onRefused, onAccepted }: Props) {
  const { t } = useTranslation(FORMATS);
  const preview = usePreviewRules();
  const [userAgent, setUserAgent] = useState('');
  const [accept, setAccept] = useState('');

  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="rule-preview-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          preview.mutate({ rules, user_agent: userAgent, accept }, { onError: onRefused, onSuccess: onAccepted });
        }}
      >
        <Stack gap="xs">
          <Title order={5} id="rule-preview-title">
            {t('preview.title')}
          </Title>
          <Text size="sm">{t('preview.body')}</Text>
          <TextInput
            label={t('preview.userAgent')}
            value={userAgent}
            dir="ltr"
            placeholder="ClashMetaForAndroid/2.11.0"
            onChange={(e) => setUserAgent(e.currentTarget.value)}
          />
          <TextInput
            label={t('preview.accept')}
            value={accept}
            dir="ltr"
            onChange={(e) => setAccept(e.currentTarget.value)}
          />
          <Button type="submit" w="fit-content" loading={preview.isPending}>
            {t('preview.run')}
          </Button>
          {preview.data && (
            <Stack gap={2} role="status">
              <Text fw={600}>{t('preview.answer', { format: preview.data.format })}</Text>
              <Text>
                {t('preview.rule', {
                  rule: preview.data.rule === 'default' ? t('preview.defaultRule') : preview.data.rule,
                })}
              </Text>
            </Stack>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
